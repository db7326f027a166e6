// The key panel's screenshots: each screenshot the key is marked on, as its
// thumbnail with the key's rectangle highlighted (positioned in percent of the
// image, so it holds at any size); a click opens the full image.
import { useQuery } from 'urql';
import { KeyScreenshotsQuery } from './screenshot-documents';

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

export function KeyScreenshots({
  projectToken,
  keyName,
  namespace,
}: {
  projectToken: string;
  keyName: string;
  namespace: string;
}) {
  const [{ data, error }] = useQuery({
    query: KeyScreenshotsQuery,
    variables: { projectToken, key: keyName, namespace },
    requestPolicy: 'cache-and-network',
  });
  const marks = data?.translationKey.screenshots ?? [];
  return (
    <section className="key-shots" aria-label={`Screenshots of ${keyName}`}>
      <h3>Screenshots</h3>
      {error && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      {data && marks.length === 0 && <p className="muted">No screenshot shows this key.</p>}
      <ul>
        {marks.map((mark) => (
          <li key={mark.id}>
            <figure>
              <a href={mark.screenshot.imagePath} target="_blank" rel="noreferrer" className="shot-frame">
                <img src={mark.screenshot.thumbnailPath} alt={`Screenshot ${mark.screenshot.name}`} />
                <span
                  className="shot-mark highlighted"
                  role="img"
                  aria-label={`Where ${keyName} is on ${mark.screenshot.name}`}
                  style={{
                    left: percent(mark.x, mark.screenshot.width),
                    top: percent(mark.y, mark.screenshot.height),
                    width: percent(mark.width, mark.screenshot.width),
                    height: percent(mark.height, mark.screenshot.height),
                  }}
                />
              </a>
              <figcaption>{mark.screenshot.name}</figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
