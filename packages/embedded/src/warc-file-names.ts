/** The WARC files of a store folder: pages-00000.warc.gz, pages-00001.warc.gz... */
export const WARC_FILE = /^pages-(\d+)\.warc\.gz$/;

/** The crawl's CDXJ index, merged from the files' own and sorted, written when the store closes. */
export const MERGED_INDEX = 'index.cdxj';

/** The CDXJ index of one WARC file, beside it: pages-00003.warc.gz -> pages-00003.cdxj. */
export function fileIndexName(warcName: string): string {
  return warcName.replace(/\.warc\.gz$/, '.cdxj');
}
