import { Parser } from 'htmlparser2';

export interface XmlHandler {
  open(name: string, attributes: Record<string, string>): void;
  text(data: string): void;
  /** `implied`: the document ended (cut off) inside the element, its close tag was never seen. */
  close(name: string, implied: boolean): void;
}

/** Tokenizes XML once; element names lose their namespace prefix (`sm:loc` -> `loc`) and are lowercased. */
export function runXmlPass(xml: string, handler: XmlHandler): void {
  const local = (name: string) => {
    const colon = name.lastIndexOf(':');
    return (colon >= 0 ? name.slice(colon + 1) : name).toLowerCase();
  };
  const parser = new Parser(
    {
      onopentag: (name, attributes) => handler.open(local(name), attributes),
      ontext: (data) => handler.text(data),
      onclosetag: (name, implied) => handler.close(local(name), implied),
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
}
