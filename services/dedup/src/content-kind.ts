const MARKUP_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_TYPES = /^(text\/|application\/(xhtml\+xml|xml|rss\+xml|atom\+xml|json|ld\+json)$)/;

/** HTML pages have blocks and a template; a missing type is read as HTML, as link extraction does. */
export function isMarkup(contentType: string | null): boolean {
  return contentType === null || MARKUP_TYPES.has(contentType);
}

/** Images, PDFs, audio, video, archives: compared by their bytes only, in their own namespace. */
export function isMedia(contentType: string | null): boolean {
  return contentType !== null && !TEXT_TYPES.test(contentType);
}
