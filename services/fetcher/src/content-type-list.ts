/** The media types whose bodies the fetcher keeps: exact types, or a family as "image/*". */
export class ContentTypeList {
  private readonly exact = new Set<string>();
  private readonly families = new Set<string>();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const type = entry.trim().toLowerCase();
      if (type.endsWith('/*')) this.families.add(type.slice(0, -2));
      else if (type) this.exact.add(type);
    }
  }

  allows(type: string): boolean {
    return this.exact.has(type) || this.families.has(type.split('/', 1)[0]!);
  }
}
