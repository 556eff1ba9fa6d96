/** The parts desk (src/core/simulators/demo-tool-world.ts): the engine's agent tests run in it too. */
export * from '../../src/core/simulators/demo-tool-world';
