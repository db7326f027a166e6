// What a language code looks like where a file names languages (the first
// level of multi-language JSON and YAML, the keys under a key-first layout):
// 2-3 letters, then subtags (`en`, `pt-BR`, `zh_Hant_TW`).
export const LANGUAGE_CODE = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;
