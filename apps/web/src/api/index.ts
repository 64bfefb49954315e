export { ApiError, send, requestJson, parse, errorFrom, type RequestOptions, type Schema } from './http.ts';
export { api, authedSend, setAuthHooks, currentToken, type AuthHooks } from './client.ts';
export { authApi } from './auth.ts';
