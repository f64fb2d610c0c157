/** One consumer of the parsing pass: every collector sees every tag and text event once. */
export interface HtmlCollector {
  open(name: string, attributes: Record<string, string>): void;
  text(data: string): void;
  close(name: string): void;
}
