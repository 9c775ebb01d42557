import { Exception } from '@adonisjs/core/exceptions'

/**
 * A multipart body: no route takes uploads, so it is refused before a byte is
 * read and nothing reaches the temp folder (415).
 */
export default class UnsupportedMediaTypeException extends Exception {
  static status = 415
  static code = 'E_UNSUPPORTED_MEDIA_TYPE'
}
