// What @jupyterlab/services' kernel connection (lib/kernel/default.js) takes from the
// package's index (`require('..')`): its server settings and the comms-over-subshells
// choice. build.mjs points that one import here, so the bundle holds the kernel connection
// and not the whole package (contents, sessions, terminals, settings, …, which the page never
// uses and whose modules would all be evaluated when the page starts).
export { ServerConnection } from '@jupyterlab/services/lib/serverconnection';
export { CommsOverSubshells } from '@jupyterlab/services/lib/kernel/comm';
