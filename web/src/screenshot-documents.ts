// The GraphQL documents of the Screenshots screen and the key panel's screenshots.
import { graphql, type ResultOf } from './graphql';

export const ScreenshotsQuery = graphql(`
  query Screenshots($projectToken: String!) {
    screenshots(projectToken: $projectToken, first: 200) {
      totalCount
      edges { node {
        id name width height thumbnailWidth thumbnailHeight thumbnailPath imagePath uploadedBy createdAt
        links { id x y width height key { key namespace } }
      } }
    }
    translationKeys(projectToken: $projectToken, first: 1000) { edges { node { key namespace } } }
  }
`);

export type Screenshot = ResultOf<typeof ScreenshotsQuery>['screenshots']['edges'][number]['node'];
export type Mark = Screenshot['links'][number];

export const UploadScreenshot = graphql(`
  mutation UploadScreenshot($projectToken: String!, $file: Upload!) {
    uploadScreenshot(projectToken: $projectToken, file: $file) { id name }
  }
`);

export const DeleteScreenshot = graphql(`
  mutation DeleteScreenshot($projectToken: String!, $id: Int!) { deleteScreenshot(projectToken: $projectToken, id: $id) }
`);

export const LinkScreenshotKey = graphql(`
  mutation LinkScreenshotKey($projectToken: String!, $screenshotId: Int!, $key: String!, $namespace: String, $rectangle: ScreenshotRectangleInput!) {
    linkScreenshotKey(projectToken: $projectToken, screenshotId: $screenshotId, key: $key, namespace: $namespace, rectangle: $rectangle) { id }
  }
`);

export const UpdateScreenshotLink = graphql(`
  mutation UpdateScreenshotLink($projectToken: String!, $linkId: Int!, $rectangle: ScreenshotRectangleInput, $key: String, $namespace: String) {
    updateScreenshotLink(projectToken: $projectToken, linkId: $linkId, rectangle: $rectangle, key: $key, namespace: $namespace) { id }
  }
`);

export const UnlinkScreenshotKey = graphql(`
  mutation UnlinkScreenshotKey($projectToken: String!, $linkId: Int!) { unlinkScreenshotKey(projectToken: $projectToken, linkId: $linkId) }
`);

export const KeyScreenshotsQuery = graphql(`
  query KeyScreenshots($projectToken: String!, $key: String!, $namespace: String) {
    translationKey(projectToken: $projectToken, key: $key, namespace: $namespace) {
      screenshots { id x y width height screenshot { id name width height thumbnailPath imagePath } }
    }
  }
`);
