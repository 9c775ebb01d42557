import { Exception } from '@adonisjs/core/exceptions'

/**
 * The process is already reading as many request bodies as its memory budget
 * allows and this one waited too long for room (503, try again shortly).
 */
export default class ServerBusyException extends Exception {
  static status = 503
  static code = 'E_SERVER_BUSY'
  headers = { 'Retry-After': '2' }
}
