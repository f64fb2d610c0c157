import type { Random } from '../seeded-random.js';

// A plain vocabulary keeps generated pages readable and lets shingling dedup behave as on real text.
const WORDS = (
  'the city council market report season river bridge harbor station school museum library ' +
  'festival weather storm rain summer winter spring autumn farmer harvest train road traffic ' +
  'engineer budget plan vote mayor minister court judge police fire crew rescue hospital doctor ' +
  'nurse patient study science research data model energy power solar wind coal price wage job ' +
  'worker union company factory shop bakery coffee table window garden park tree forest mountain ' +
  'valley village town county border island coast ship port cargo flight airport pilot ticket ' +
  'student teacher exam class book author novel poem music concert band song film actor stage ' +
  'team match goal coach player league final record crowd ticket stadium neighbor family child ' +
  'history archive letter map survey census network cable phone signal software update release ' +
  'quietly sharply slowly early late new old small large local national annual public private ' +
  'opened closed raised cut reported announced expected delayed approved rejected discussed ' +
  'visited built repaired measured counted published reviewed praised questioned planned ' +
  'after before during despite across under over near between within around toward against'
).split(/\s+/);

export function writeSentence(random: Random, minWords = 8, maxWords = 16): string {
  const count = minWords + random.int(maxWords - minWords + 1);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(random.pick(WORDS));
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export function writeParagraph(random: Random, sentences: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) parts.push(writeSentence(random));
  return parts.join(' ');
}

export function writeParagraphs(random: Random, count: number): string[] {
  const paragraphs: string[] = [];
  for (let i = 0; i < count; i++) paragraphs.push(writeParagraph(random, 3 + random.int(3)));
  return paragraphs;
}

export function writeTitle(random: Random): string {
  const words = [random.pick(WORDS), random.pick(WORDS), random.pick(WORDS), random.pick(WORDS)];
  return words.map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1)}`).join(' ');
}
