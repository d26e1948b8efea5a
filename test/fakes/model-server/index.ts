// Entry point of the fake model server (see README.md in this folder).
export { startFakeModelServer } from './server.js';
export type { FakeModelServer, FakeModelServerOptions, RecordedRequest } from './server.js';
export { always, envelopeText, toolThenText, toolsThenText } from './script.js';
export type { ModelRequest, Protocol, Reply, Script, TextReply, ToolReply, ErrorReply } from './script.js';
export { estimateTokens, promptParts } from './tokens.js';
export type { RequestTokens } from './tokens.js';
