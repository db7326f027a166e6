// The service as a child process lives in scripts/lib (shared with bench/, which never imports test/).
export * from '../../scripts/lib/service-process.js';
