// /api/v2/screenshots (project API key): screenshots and the keys marked on
// them. Not part of the REST contract: the service's own extension beside it
// (docs/screenshots.md), executed as the screenshot GraphQL operations like
// every route. The bytes are served by src/http/screenshot-files.ts at
// /api/v2/screenshots/{id}/image and /thumbnail.
import { badRequest } from '../../src/errors.js';
import { bodyFields, bodyObject, queryInt, queryString } from '../params.js';
import { defineRoute, type JsonSchema, type RestRequest, type RestRoute } from '../route.js';

const LINK = `fragment RestScreenshotLink on ScreenshotLink { id x y width height key { key namespace } }`;
const SCREENSHOT = `fragment RestScreenshot on Screenshot {
  id name mimeType width height size thumbnailWidth thumbnailHeight imagePath thumbnailPath uploadedBy createdAt links { ...RestScreenshotLink }
} ${LINK}`;

const EXTENSION = 'An extension of this service, not part of the REST contract (docs/screenshots.md).';

function intParam(req: RestRequest, name: string): number {
  const value = req.params[name] ?? '';
  if (!/^[1-9]\d{0,8}$/.test(value)) throw badRequest(`${name} must be a positive integer, got '${value}'`);
  return Number(value);
}

const RECTANGLE = ['x', 'y', 'width', 'height'] as const;
const rectangleBody: JsonSchema = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    namespace: { type: 'string' },
    x: { type: 'integer' },
    y: { type: 'integer' },
    width: { type: 'integer' },
    height: { type: 'integer' },
  },
};

/** The rectangle of a body, when it gives any of its fields (then all four are needed). */
function rectangleOf(body: unknown, required: boolean): Record<string, unknown> | undefined {
  const fields = bodyFields(body, RECTANGLE);
  if (!required && Object.keys(fields).length === 0) return undefined;
  return fields;
}

export const routes: RestRoute[] = [
  defineRoute<{ uploadScreenshot: unknown }>({
    method: 'POST',
    path: '/api/v2/screenshots',
    auth: 'apiKey',
    summary: 'Upload a screenshot (PNG, JPEG or WebP; multipart form field `file`)',
    description: `${EXTENSION} A file that is not really such an image, is truncated, carries other data after the image, or exceeds SCREENSHOT_MAX_BYTES or SCREENSHOT_MAX_PIXELS is refused (400, 413) and nothing is stored.`,
    multipart: true,
    query: [{ name: 'name', description: 'Its name in the console (default: the file name)', maxLength: 255 }],
    document: `mutation RestUploadScreenshot($file: Upload!, $name: String) { uploadScreenshot(file: $file, name: $name) { ...RestScreenshot } } ${SCREENSHOT}`,
    toVariables: (req) => ({ file: req.file!, name: queryString(req.query, 'name', { maxLength: 255 }) }),
    toResponse: (data) => ({ data: data.uploadScreenshot }),
  }),
  defineRoute<{ screenshots: { totalCount: number; edges: { node: unknown }[] } }>({
    method: 'GET',
    path: '/api/v2/screenshots',
    auth: 'apiKey',
    summary: 'List the screenshots of the project, newest first',
    description: EXTENSION,
    query: [
      { name: 'linked', description: 'true: only screenshots with a marked key; false: only those without' },
      { name: 'limit', type: 'integer', minimum: 1, maximum: 200, description: 'Default 50' },
    ],
    response: {
      data: {
        type: 'object',
        properties: { totalCount: { type: 'integer' }, screenshots: { type: 'array', items: { type: 'object' } } },
        required: ['totalCount', 'screenshots'],
      },
    },
    document: `query RestScreenshots($linked: Boolean, $first: Int) { screenshots(linked: $linked, first: $first) { totalCount edges { node { ...RestScreenshot } } } } ${SCREENSHOT}`,
    toVariables: (req) => {
      const linked = queryString(req.query, 'linked');
      if (linked !== undefined && linked !== 'true' && linked !== 'false')
        throw badRequest(`linked must be true or false, got '${linked}'`);
      return {
        linked: linked === undefined ? undefined : linked === 'true',
        first: queryInt(req.query, 'limit', { min: 1, max: 200 }),
      };
    },
    toResponse: (data) => ({
      data: { totalCount: data.screenshots.totalCount, screenshots: data.screenshots.edges.map((e) => e.node) },
    }),
  }),
  defineRoute<{ screenshot: unknown }>({
    method: 'GET',
    path: '/api/v2/screenshots/:screenshotId',
    auth: 'apiKey',
    summary: 'Get one screenshot with the keys marked on it',
    description: EXTENSION,
    document: `query RestScreenshot($id: Int!) { screenshot(id: $id) { ...RestScreenshot } } ${SCREENSHOT}`,
    toVariables: (req) => ({ id: intParam(req, 'screenshotId') }),
    toResponse: (data) => ({ data: data.screenshot }),
  }),
  defineRoute<{ deleteScreenshot: boolean }>({
    method: 'DELETE',
    path: '/api/v2/screenshots/:screenshotId',
    auth: 'apiKey',
    summary: 'Delete a screenshot with its marked keys and stored files',
    description: EXTENSION,
    response: { data: null },
    document: `mutation RestDeleteScreenshot($id: Int!) { deleteScreenshot(id: $id) }`,
    toVariables: (req) => ({ id: intParam(req, 'screenshotId') }),
    toResponse: () => ({}),
  }),
  defineRoute<{ linkScreenshotKey: unknown }>({
    method: 'POST',
    path: '/api/v2/screenshots/:screenshotId/links',
    auth: 'apiKey',
    summary: 'Mark a key on a screenshot: {key, namespace, x, y, width, height} in image pixels',
    description: EXTENSION,
    body: rectangleBody,
    document: `mutation RestLinkScreenshotKey($screenshotId: Int!, $key: String!, $namespace: String, $rectangle: ScreenshotRectangleInput!) {
      linkScreenshotKey(screenshotId: $screenshotId, key: $key, namespace: $namespace, rectangle: $rectangle) { ...RestScreenshotLink } } ${LINK}`,
    naming: { bodyVariables: ['rectangle'] },
    toVariables: (req) => {
      const { key, namespace } = bodyObject(req.body);
      return { screenshotId: intParam(req, 'screenshotId'), key, namespace, rectangle: rectangleOf(req.body, true) };
    },
    toResponse: (data) => ({ data: data.linkScreenshotKey }),
  }),
  defineRoute<{ updateScreenshotLink: unknown }>({
    method: 'PATCH',
    path: '/api/v2/screenshots/:screenshotId/links/:linkId',
    auth: 'apiKey',
    summary: 'Move a marked rectangle (x, y, width, height) and/or give it another key (key, namespace)',
    description: EXTENSION,
    body: rectangleBody,
    document: `mutation RestUpdateScreenshotLink($screenshotId: Int!, $linkId: Int!, $key: String, $namespace: String, $rectangle: ScreenshotRectangleInput) {
      updateScreenshotLink(screenshotId: $screenshotId, linkId: $linkId, key: $key, namespace: $namespace, rectangle: $rectangle) { ...RestScreenshotLink } } ${LINK}`,
    naming: { bodyVariables: ['rectangle'] },
    toVariables: (req) => {
      const { key, namespace } = bodyObject(req.body);
      return {
        screenshotId: intParam(req, 'screenshotId'),
        linkId: intParam(req, 'linkId'),
        key,
        namespace,
        rectangle: rectangleOf(req.body, false),
      };
    },
    toResponse: (data) => ({ data: data.updateScreenshotLink }),
  }),
  defineRoute<{ unlinkScreenshotKey: boolean }>({
    method: 'DELETE',
    path: '/api/v2/screenshots/:screenshotId/links/:linkId',
    auth: 'apiKey',
    summary: 'Remove a marked rectangle (the screenshot stays)',
    description: EXTENSION,
    response: { data: null },
    document: `mutation RestUnlinkScreenshotKey($screenshotId: Int!, $linkId: Int!) { unlinkScreenshotKey(screenshotId: $screenshotId, linkId: $linkId) }`,
    toVariables: (req) => ({ screenshotId: intParam(req, 'screenshotId'), linkId: intParam(req, 'linkId') }),
    toResponse: () => ({}),
  }),
];
