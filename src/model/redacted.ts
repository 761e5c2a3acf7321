/** What stands in reports for a secret (a header value, an environment value) the user gave. */
export const REDACTED = '[redacted]';
