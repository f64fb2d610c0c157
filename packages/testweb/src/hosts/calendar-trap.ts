import { makeLink, standardPage, fixedContent } from '../model/page-kit.js';
import type { Resource } from '../model/web-model.js';

const CALENDAR_PATH = /^\/calendar\/(\d{4})\/(\d{2})$/;

/**
 * An archive calendar: every month links to the previous and next month, forever. Months only link
 * to other months and to the home page, so no real page is reachable only through the trap.
 */
export function createCalendarRoute(origin: string): (pathAndQuery: string) => Resource | undefined {
  return (pathAndQuery) => {
    const match = CALENDAR_PATH.exec(pathAndQuery);
    if (!match) return undefined;
    const year = Number(match[1]);
    const month = Number(match[2]);
    if (month < 1 || month > 12 || year < 1000) return undefined;
    const path = calendarPath(year, month);
    const previous = month === 1 ? calendarPath(year - 1, 12) : calendarPath(year, month - 1);
    const next = month === 12 ? calendarPath(year + 1, 1) : calendarPath(year, month + 1);
    const links = [
      makeLink({ origin, path }, { origin, path: '/' }, 'Home', { placement: 'nav' }),
      ...(year > 1000 || month > 1
        ? [makeLink({ origin, path }, { origin, path: previous }, 'Previous month', { form: 'relative' })]
        : []),
      ...(year < 9999 || month < 12
        ? [makeLink({ origin, path }, { origin, path: next }, 'Next month', { form: 'relative' })]
        : []),
    ];
    const title = `Archive for ${year}-${String(month).padStart(2, '0')}`;
    const content = fixedContent(`calendar:${year}:${month}`, [`No posts were published in ${title.slice(12)}.`]);
    return { kind: 'page', page: standardPage({ title, template: 'blog', content, links, trap: true }) };
  };
}

export function calendarPath(year: number, month: number): string {
  return `/calendar/${year}/${String(month).padStart(2, '0')}`;
}
