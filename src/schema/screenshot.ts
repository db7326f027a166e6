// Screenshots of a project and the keys marked on them (docs/screenshots.md):
// upload (a file sent with the GraphQL multipart request spec, like importFile),
// list, delete; link a key with a rectangle, move it, unlink. Reading needs
// READ, uploading and marking SCREENSHOTS, every other change KEYS (src/teams/permissions.ts). The bytes are served by
// src/http/screenshot-files.ts at the paths given here, with the same check.
import { builder } from '../builder.js';
import { prisma } from '../db.js';
import { resolveProject } from '../projects/access.js';
import { linkKey, unlink, updateLink } from '../screenshots/links.js';
import {
  deleteScreenshot,
  SCREENSHOT_PAGE,
  screenshotOfProject,
  screenshotWhere,
  uploadScreenshot,
} from '../screenshots/screenshots.js';
import { need } from '../teams/permissions.js';

/** Where the service serves a screenshot's bytes, relative to its public URL. */
export const screenshotPath = (id: number, which: 'image' | 'thumbnail') => `/api/v2/screenshots/${id}/${which}`;

export const ScreenshotType = builder.prismaObject('Screenshot', {
  description: 'An uploaded screenshot (PNG, JPEG or WebP) with a WebP thumbnail, and the keys marked on it.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name', { description: "The uploader's name for it (by default the file name)." }),
    mimeType: t.exposeString('mimeType', {
      description: 'image/png, image/jpeg or image/webp, as read from the bytes.',
    }),
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    size: t.exposeInt('bytes', { description: 'Bytes of the image.' }),
    thumbnailWidth: t.exposeInt('thumbnailWidth'),
    thumbnailHeight: t.exposeInt('thumbnailHeight'),
    imagePath: t.string({
      description:
        'GET it (relative to the service URL) with a credential that may read the project: the image as uploaded.',
      resolve: (s) => screenshotPath(s.id, 'image'),
    }),
    thumbnailPath: t.string({
      description: 'Like imagePath: the WebP thumbnail.',
      resolve: (s) => screenshotPath(s.id, 'thumbnail'),
    }),
    uploadedBy: t.string({
      nullable: true,
      description: "The uploading account's name (or e-mail); null when uploaded with the project API key.",
      select: { createdBy: { select: { name: true, email: true } } },
      resolve: (s) => (s.createdBy ? s.createdBy.name || s.createdBy.email : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    links: t.relation('links', {
      description: 'The keys marked on it, in the order they were marked.',
      query: { orderBy: { id: 'asc' } },
    }),
  }),
});

export const ScreenshotLinkType = builder.prismaObject('KeyScreenshot', {
  name: 'ScreenshotLink',
  description: "A key marked on a screenshot: a rectangle in the image's pixels.",
  fields: (t) => ({
    id: t.exposeInt('id'),
    x: t.exposeInt('x'),
    y: t.exposeInt('y'),
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    key: t.relation('key'),
    screenshot: t.relation('screenshot'),
  }),
});

builder.prismaObjectField('TranslationKey', 'screenshots', (t) =>
  t.relation('screenshotLinks', {
    description:
      'The screenshots showing the key, each with its rectangle (a screenshot twice when the key is marked twice on it).',
    query: { orderBy: [{ screenshotId: 'asc' }, { id: 'asc' }] },
  }),
);

const RectangleInput = builder.inputType('ScreenshotRectangleInput', {
  description: "A rectangle in the image's pixels, inside the image.",
  fields: (t) => ({
    x: t.int({ required: true }),
    y: t.int({ required: true }),
    width: t.int({ required: true }),
    height: t.int({ required: true }),
  }),
});

builder.queryFields((t) => ({
  screenshots: t.prismaConnection({
    type: 'Screenshot',
    cursor: 'id',
    defaultSize: SCREENSHOT_PAGE.defaultSize,
    maxSize: SCREENSHOT_PAGE.maxSize,
    description: 'The screenshots of the project, newest first.',
    args: {
      projectToken: t.arg.string({ required: false }),
      linked: t.arg.boolean({
        required: false,
        description: 'Only screenshots with (true) or without (false) a marked key.',
      }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('screenshots'));
      return prisma().screenshot.findMany({
        ...query,
        where: screenshotWhere(projectId, args),
        orderBy: { id: 'desc' },
      });
    },
    totalCount: async (_root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('screenshots'));
      return prisma().screenshot.count({ where: screenshotWhere(projectId, args) });
    },
  }),
  screenshot: t.prismaField({
    type: ScreenshotType,
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('screenshot'));
      await screenshotOfProject(projectId, args.id);
      return prisma().screenshot.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
}));

builder.mutationFields((t) => ({
  uploadScreenshot: t.prismaField({
    type: ScreenshotType,
    description:
      'Uploads a PNG, JPEG or WebP screenshot (multipart request). Anything else, a truncated image, data after the image or more pixels than allowed is refused and nothing is stored.',
    args: {
      projectToken: t.arg.string({ required: false }),
      file: t.arg({ type: 'Upload', required: true }),
      name: t.arg.string({ required: false, description: 'Default: the file name.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('uploadScreenshot'));
      const accountId =
        ctx.principal.kind === 'account' || ctx.principal.kind === 'inContext' ? ctx.principal.accountId : null;
      const { id } = await uploadScreenshot({ projectId, accountId, file: args.file, name: args.name });
      return prisma().screenshot.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteScreenshot: t.boolean({
    description: 'Deletes a screenshot, its links and its stored files.',
    args: { projectToken: t.arg.string({ required: false }), id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deleteScreenshot(await resolveProject(ctx.principal, args.projectToken, need('deleteScreenshot')), args.id);
      return true;
    },
  }),
  linkScreenshotKey: t.prismaField({
    type: ScreenshotLinkType,
    description: 'Marks a key on a screenshot at a rectangle.',
    args: {
      projectToken: t.arg.string({ required: false }),
      screenshotId: t.arg.int({ required: true }),
      key: t.arg.string({ required: true }),
      namespace: t.arg.string({ required: false }),
      rectangle: t.arg({ type: RectangleInput, required: true }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('linkScreenshotKey'));
      const { id } = await linkKey(
        projectId,
        args.screenshotId,
        { key: args.key, namespace: args.namespace },
        args.rectangle,
      );
      return prisma().keyScreenshot.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateScreenshotLink: t.prismaField({
    type: ScreenshotLinkType,
    description: 'Moves or resizes a marked rectangle, and/or gives it another key (key and namespace).',
    args: {
      projectToken: t.arg.string({ required: false }),
      linkId: t.arg.int({ required: true }),
      screenshotId: t.arg.int({ required: false, description: 'When given, the link must be on this screenshot.' }),
      rectangle: t.arg({ type: RectangleInput, required: false }),
      key: t.arg.string({ required: false }),
      namespace: t.arg.string({ required: false }),
    },
    resolve: async (query, _root, args, ctx) => {
      const projectId = await resolveProject(ctx.principal, args.projectToken, need('updateScreenshotLink'));
      const key = args.key != null ? { key: args.key, namespace: args.namespace } : null;
      const { id } = await updateLink(projectId, args.linkId, {
        rectangle: args.rectangle,
        key,
        screenshotId: args.screenshotId,
      });
      return prisma().keyScreenshot.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  unlinkScreenshotKey: t.boolean({
    description: 'Removes a marked rectangle; the screenshot stays.',
    args: {
      projectToken: t.arg.string({ required: false }),
      linkId: t.arg.int({ required: true }),
      screenshotId: t.arg.int({ required: false, description: 'When given, the link must be on this screenshot.' }),
    },
    resolve: async (_root, args, ctx) => {
      await unlink(
        await resolveProject(ctx.principal, args.projectToken, need('unlinkScreenshotKey')),
        args.linkId,
        args.screenshotId,
      );
      return true;
    },
  }),
}));
