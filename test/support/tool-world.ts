/** The parts desk (src/core/demo-tool-world.ts): the engine's agent tests run in it too. */
export * from '../../src/core/demo-tool-world';
