/**
 * Every non-zero `code` the emulator answers with. docs/EMULATOR.md ("Error codes the emulator serves")
 * gives each one's HTTP status, when it is sent and its source, or says it is assumed.
 */
export const CODES = {
  allKernelsFailed: -2,
  /** Also a kernel download that partly failed (the browser spec). */
  closeFailed: -1,
  alreadyRunning: 100,
  profileNotFound: 101,
  appInstallFailed: 201,
  invalidRequest: 400,
  invalidToken: 401,
  notFound: 404,
  rateLimited: 429,
  serverError: 500,
  serviceUnavailable: 503,
  proxyHostEmpty: 14021,
  proxyPortEmpty: 14022,
  proxyNotDeletable: 14017,
  proxyNotFound: 14024,
  proxyTypeEmpty: 14025,
  groupNameTaken: 15001,
  tagNameTaken: 15002,
  tagsInvalid: 19105,
  phoneNotFound: 33300,
  phoneNotStarted: 33301,
  phoneInUse: 33327,
  phoneResetting: 33331,
  phoneFileNotFound: 33507,
  authMissing: 35001,
  authFailed: 35002,
  storageFileNotFound: 39011,
  unknownError: 99000,
  paramError: 99001,
  tooLarge: 99004,
  badRequest: 99006,
} as const;
