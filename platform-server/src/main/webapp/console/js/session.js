// The signed-in token lives in sessionStorage only (gone when the tab closes) and is decoded here for display.
// Decoding is NOT verification: the server verifies every call; the claims only tell the user who they are.

const KEY = 'corpora.console.token';

export function token() {
  return sessionStorage.getItem(KEY);
}

export function signIn(rawToken) {
  const trimmed = rawToken.trim().replace(/^Bearer\s+/i, '');
  const claims = decode(trimmed); // throws on a malformed token before anything is stored
  sessionStorage.setItem(KEY, trimmed);
  return claims;
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

/** The current token's claims, or null when signed out. */
export function claims() {
  const current = token();
  if (!current) return null;
  try {
    return decode(current);
  } catch {
    return null;
  }
}

export function roles() {
  const c = claims();
  return c && Array.isArray(c.groups) ? c.groups : [];
}

export function hasRole(role) {
  return roles().includes(role);
}

/** The tenant the token is scoped to: data-plane views act on this tenant only (the server enforces it). */
export function tenant() {
  const c = claims();
  return c && typeof c.tenant === 'string' ? c.tenant : null;
}

export function decode(jwt) {
  const parts = jwt.split('.');
  if (parts.length !== 3 || parts.some(p => p.length === 0)) {
    throw new Error('a JWT has three dot-separated parts (header.payload.signature)');
  }
  let json;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - base64.length % 4) % 4);
    const bytes = Uint8Array.from(atob(padded), c => c.charCodeAt(0));
    json = new TextDecoder().decode(bytes);
  } catch {
    throw new Error('the token payload is not base64url');
  }
  let payload;
  try {
    payload = JSON.parse(json);
  } catch {
    throw new Error('the token payload is not JSON');
  }
  if (payload === null || typeof payload !== 'object') {
    throw new Error('the token payload is not a JSON object');
  }
  return payload;
}

/** Seconds until expiry (negative when expired), or null without an exp claim. */
export function secondsLeft(c) {
  return typeof c.exp === 'number' ? Math.round(c.exp - Date.now() / 1000) : null;
}
