export declare const SCHEMA_PATH: string;
export declare function generateSchema(document: object): Promise<string>;
