/**
 * The activation track's trigger world: it lives in src/core/simulators/demo-trigger-world.ts (the in-page demo
 * runs it too).
 */
export * from '../../src/core/simulators/demo-trigger-world';
