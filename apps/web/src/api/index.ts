export { ApiError, requestJson, parse, errorFrom } from './http.ts';
export { api, authedSend, setAuthHooks } from './client.ts';
export { authApi } from './auth.ts';
