/**
 * `Permissions-Policy` of every AgentDesk response, the API's and the console's: powerful browser
 * features neither ever uses, off for it and for anything it might embed. One list, so the two
 * servers cannot drift apart.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
].join(', ');
