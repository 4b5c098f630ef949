export {
  STRICT_TRANSPORT_SECURITY,
  contentSecurityPolicy,
  newNonce,
  securityHeaders,
  type SecurityHeaderOptions,
} from './security-headers';
