// How the default namespace ('') is named where a name must not be empty: in
// an export's file names (`_default_en.json`, the zip folder `_default/`) and
// in the official client's download answer, whose `{ns}` placeholder would
// otherwise make `locales/en/{ns}.json` the hidden file `locales/en/.json`.
// The client's upload gives the same name back (`{ns}` in uploadPath), and the
// /cli routes read it as the default namespace, so the files round-trip.
export const DEFAULT_NAMESPACE_FILE_NAME = '_default';
