/** module.worker.ts built to one classic script's text (vite.config.ts): a sandbox starts it from a blob. */
declare module 'virtual:module-host-script' {
  const hostScript: string;
  export default hostScript;
}
