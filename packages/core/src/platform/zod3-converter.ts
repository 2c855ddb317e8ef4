/** The shape of zod 3's JSON Schema converter, whichever platform file provides it. */
export type Zod3Converter = (
  schema: unknown,
  options: {
    target: 'jsonSchema2019-09';
    $refStrategy: 'root';
    definitionPath: string;
    pipeStrategy: 'input';
    effectStrategy: 'input';
  },
) => Record<string, unknown>;
