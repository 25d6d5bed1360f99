export { HttpConnectProxy } from './http-connect-proxy.js';
export { Socks5Proxy } from './socks5-proxy.js';
export type { FakeProxyOptions, ProxiedConnection, ProxyAuth } from './proxy-log.js';
