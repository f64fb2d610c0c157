import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The real-world test pages of chardet (the Python package): feeds and pages of many sites, one
 * folder per encoding and language. Its README says each is copyright its publisher, so they
 * are never copied into this repository: the bench downloads the source distribution from PyPI
 * with pip when it runs and keeps it in the cache folder.
 */
export const CHARDET_VERSION = '5.2.0';

export type Group = 'cyrillic' | 'cjk' | 'western' | 'central-european' | 'other';

/** chardet's folders whose encoding the Encoding Standard names, with that name. */
export const FAMILIES: Record<string, { charset: string; group: Group }> = {
  'KOI8-R': { charset: 'koi8-r', group: 'cyrillic' },
  'windows-1251-russian': { charset: 'windows-1251', group: 'cyrillic' },
  'windows-1251-bulgarian': { charset: 'windows-1251', group: 'cyrillic' },
  IBM866: { charset: 'ibm866', group: 'cyrillic' },
  MacCyrillic: { charset: 'x-mac-cyrillic', group: 'cyrillic' },
  'iso-8859-5-russian': { charset: 'iso-8859-5', group: 'cyrillic' },
  'iso-8859-5-bulgarian': { charset: 'iso-8859-5', group: 'cyrillic' },
  Big5: { charset: 'big5', group: 'cjk' },
  SHIFT_JIS: { charset: 'shift_jis', group: 'cjk' },
  CP932: { charset: 'shift_jis', group: 'cjk' },
  'EUC-JP': { charset: 'euc-jp', group: 'cjk' },
  'iso-2022-jp': { charset: 'iso-2022-jp', group: 'cjk' },
  'EUC-KR': { charset: 'euc-kr', group: 'cjk' },
  CP949: { charset: 'euc-kr', group: 'cjk' },
  GB2312: { charset: 'gbk', group: 'cjk' },
  'windows-1252': { charset: 'windows-1252', group: 'western' },
  'iso-8859-1': { charset: 'windows-1252', group: 'western' },
  ascii: { charset: 'windows-1252', group: 'western' },
  'utf-8': { charset: 'utf-8', group: 'western' },
  'utf-8-sig': { charset: 'utf-8', group: 'western' },
  MacRoman: { charset: 'macintosh', group: 'western' },
  'iso-8859-2-croatian': { charset: 'iso-8859-2', group: 'central-european' },
  'iso-8859-2-czech': { charset: 'iso-8859-2', group: 'central-european' },
  'iso-8859-2-hungarian': { charset: 'iso-8859-2', group: 'central-european' },
  'iso-8859-2-polish': { charset: 'iso-8859-2', group: 'central-european' },
  'iso-8859-2-slovak': { charset: 'iso-8859-2', group: 'central-european' },
  'iso-8859-2-slovene': { charset: 'iso-8859-2', group: 'central-european' },
  'windows-1250-croatian': { charset: 'windows-1250', group: 'central-european' },
  'windows-1250-czech': { charset: 'windows-1250', group: 'central-european' },
  'windows-1250-hungarian': { charset: 'windows-1250', group: 'central-european' },
  'windows-1250-polish': { charset: 'windows-1250', group: 'central-european' },
  'windows-1250-romanian': { charset: 'windows-1250', group: 'central-european' },
  'windows-1250-slovak': { charset: 'windows-1250', group: 'central-european' },
  'windows-1250-slovene': { charset: 'windows-1250', group: 'central-european' },
  'iso-8859-9-turkish': { charset: 'windows-1254', group: 'other' },
  'windows-1254-turkish': { charset: 'windows-1254', group: 'other' },
  'iso-8859-7-greek': { charset: 'iso-8859-7', group: 'other' },
  'windows-1255-hebrew': { charset: 'windows-1255', group: 'other' },
  'iso-8859-6-arabic': { charset: 'iso-8859-6', group: 'other' },
  'windows-1256-arabic': { charset: 'windows-1256', group: 'other' },
  'TIS-620': { charset: 'windows-874', group: 'other' },
};

export interface CorpusFile {
  family: string;
  name: string;
  bytes: Buffer;
}

/** chardet's `tests` folder, downloaded (pip) and unpacked into `cacheDir` on first use. */
export function chardetTestsDir(cacheDir: string): string {
  const root = join(cacheDir, `chardet-${CHARDET_VERSION}`);
  const tests = join(root, 'tests');
  if (existsSync(tests)) return tests;
  mkdirSync(cacheDir, { recursive: true });
  const archive = join(cacheDir, `chardet-${CHARDET_VERSION}.tar.gz`);
  if (!existsSync(archive))
    execFileSync(
      'python3',
      ['-m', 'pip', 'download', '--no-binary', ':all:', '--no-deps', `chardet==${CHARDET_VERSION}`, '-d', cacheDir],
      { stdio: 'inherit' },
    );
  execFileSync('tar', ['xzf', archive, '-C', cacheDir, `chardet-${CHARDET_VERSION}/tests`], { stdio: 'inherit' });
  return tests;
}

/** Every page of the families above, in a stable order. */
export function loadChardetCorpus(testsDir: string): CorpusFile[] {
  return Object.keys(FAMILIES).flatMap((family) =>
    readdirSync(join(testsDir, family))
      .sort()
      .map((name) => ({ family, name, bytes: readFileSync(join(testsDir, family, name)) })),
  );
}
