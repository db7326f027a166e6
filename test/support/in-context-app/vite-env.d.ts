interface ImportMetaEnv {
  readonly VITE_SERVICE_URL: string;
  readonly VITE_INCONTEXT_TOKEN?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
