export { RestError, type RestErrorBody } from './rest-error.ts'
export { errorTable, restError, type ErrorCode } from './codes.ts'
export { toRestError } from './to-rest-error.ts'
export { installErrorHandling } from './error-handler.ts'
