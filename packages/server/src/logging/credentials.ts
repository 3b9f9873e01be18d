/**
 * A connection URL as it may be said in a message or a log line: the `user:password@` part of
 * `scheme://user:password@host` masked (docs/deployment.md, "Logs"). A variable refused at start
 * (a misspelt scheme, say) is named with its value, and that value holds the password.
 */
export function withoutCredentials(url: string): string {
  // Up to the last '@': a password written with an unescaped '@', '/' or '#' is masked whole.
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/).*@/s, '$1***@');
}
