/**
 * Text from outside (an endpoint's error, a file's field) made safe to print: control characters
 * other than line breaks and tabs are dropped, so no escape sequence in it can move a terminal's
 * cursor, recolour it, retitle the window or hide the lines above.
 */
// C0 controls but \t and \n, DEL, and the C1 controls (0x80–0x9f: CSI and friends on some terminals).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function printable(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, '');
}
