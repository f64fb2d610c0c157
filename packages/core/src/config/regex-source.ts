import { z } from 'zod';

/** A regular expression's source, checked by compiling it, so a bad pattern is a config error at load, not a throw mid-crawl. */
export const regexSource = z.string().refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);
