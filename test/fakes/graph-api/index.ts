// The fake Graph API and the provider-side helpers, for any test that needs the Cloud API.
export { FakeGraphApi, type FakeGraphApiOptions, type RequestMatch } from './fake-graph-api.js';
export { GRAPH_ERRORS, type FakeGraphError, graphErrorBody } from './graph-errors.js';
export type { FormFile, GraphRequest } from './graph-routes.js';
export type { FakeMedia, FakeNumber, FakeTemplate, GraphWorld } from './graph-world.js';
export { callbackBytes, postCallback, signCallback, type CallbackResponse, type PostCallbackOptions } from './callback-sender.js';
export * from './callback-payloads.js';
