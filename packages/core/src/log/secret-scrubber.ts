/** Variables whose whole value is a secret, by the naming every setting of ours follows. */
const SECRET_NAME = /(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|CREDENTIALS?)$/i;
/**
 * The userinfo of a URL: `scheme://user:password@host`. It runs to the last @ before the end of
 * the authority, as URL parsers read it, so `http://a:b@c@host` loses `a:b@c`, not just `a:b`.
 */
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'\\<>]*@/gi;
/**
 * Shorter values are not hunted for in log lines: they would blank out ordinary words, and the
 * field-name and URL rules still hide them where they are usually written.
 */
const MIN_SECRET_LENGTH = 4;

/**
 * Secret values found in the environment: the values of *_PASSWORD, *_TOKEN, *_API_KEY... and
 * the credentials inside any URL-valued variable (REDIS_URL, HBASE_REST_URL, proxies).
 */
export function secretValuesOf(env: NodeJS.ProcessEnv): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (SECRET_NAME.test(name)) found.add(value);
    for (const match of value.matchAll(/[a-z][a-z0-9+.-]*:\/\/([^\s/?#"'\\<>]+)@/gi)) {
      const userinfo = match[1]!;
      // user:password, or a bare token before the @.
      const password = userinfo.slice(userinfo.indexOf(':') + 1);
      for (const part of [userinfo, password]) found.add(part).add(safeDecode(part));
    }
  }
  return [...found].filter((value) => value.length >= MIN_SECRET_LENGTH);
}

/**
 * Replaces URL credentials and the given secret values, raw or as escaped inside a JSON string,
 * with "[redacted]". Applied to whole log lines, so no field, message or stack trace escapes it.
 */
export function createSecretScrubber(secrets: readonly string[]): (text: string) => string {
  const forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))]
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = redactUrl(text);
    for (const form of forms) if (out.includes(form)) out = out.split(form).join('[redacted]');
    return out;
  };
}

/** Every `user:password@` of a URL in the text becomes `[redacted]@`: for proxies, brokers, and URLs shown to users. */
export function redactUrl(text: string): string {
  return text.includes('://') ? text.replace(URL_USERINFO, '$1[redacted]@') : text;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
