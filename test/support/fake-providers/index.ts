export * from './common.js';
export * from './google.js';
export * from './deepl.js';
