// A project's screens under #/projects/<token>/<section>, with links between
// them. Each screen is one entry of `sections`; the first is the default.
import { lazy, Suspense, type ComponentType } from 'react';
import { Editor } from './Editor';
import { usePageTitle } from './page-title';

// The editor, where a project opens, comes with the console; every other
// screen is a chunk of its own, fetched when it is first opened.
type Screen = ComponentType<{ projectToken: string }>;
const screen = <M,>(load: () => Promise<M>, pick: (module: M) => Screen) =>
  lazy(async () => ({ default: pick(await load()) }));
const QualityScreen = screen(
  () => import('./QualityScreen'),
  (m) => m.QualityScreen,
);
const GlossaryScreen = screen(
  () => import('./GlossaryScreen'),
  (m) => m.GlossaryScreen,
);
const ScreenshotsScreen = screen(
  () => import('./ScreenshotsScreen'),
  (m) => m.ScreenshotsScreen,
);
const ImportScreen = screen(
  () => import('./ImportScreen'),
  (m) => m.ImportScreen,
);
const ExportScreen = screen(
  () => import('./ExportScreen'),
  (m) => m.ExportScreen,
);
const AutoTranslateScreen = screen(
  () => import('./AutoTranslateScreen'),
  (m) => m.AutoTranslateScreen,
);
const GitSyncScreen = screen(
  () => import('./GitSyncScreen'),
  (m) => m.GitSyncScreen,
);
const HostingScreen = screen(
  () => import('./HostingScreen'),
  (m) => m.HostingScreen,
);
const AutomationsScreen = screen(
  () => import('./AutomationsScreen'),
  (m) => m.AutomationsScreen,
);
const MembersScreen = screen(
  () => import('./MembersScreen'),
  (m) => m.MembersScreen,
);
const ActivityScreen = screen(
  () => import('./ActivityScreen'),
  (m) => m.ActivityScreen,
);
const ProjectSettings = screen(
  () => import('./ProjectSettings'),
  (m) => m.ProjectSettings,
);

interface Section {
  id: string;
  label: string;
  Screen: Screen;
}

const sections: Section[] = [
  { id: 'translations', label: 'Translations', Screen: Editor },
  { id: 'quality', label: 'Quality', Screen: QualityScreen },
  { id: 'glossary', label: 'Glossary', Screen: GlossaryScreen },
  { id: 'screenshots', label: 'Screenshots', Screen: ScreenshotsScreen },
  { id: 'import', label: 'Import', Screen: ImportScreen },
  { id: 'export', label: 'Export', Screen: ExportScreen },
  { id: 'auto-translate', label: 'Auto-translate', Screen: AutoTranslateScreen },
  { id: 'git', label: 'Git sync', Screen: GitSyncScreen },
  { id: 'hosting', label: 'Hosting', Screen: HostingScreen },
  { id: 'automations', label: 'Automations', Screen: AutomationsScreen },
  { id: 'members', label: 'Members', Screen: MembersScreen },
  { id: 'activity', label: 'Activity', Screen: ActivityScreen },
  { id: 'settings', label: 'Settings', Screen: ProjectSettings },
];

export function ProjectLayout({ projectToken, section }: { projectToken: string; section: string | undefined }) {
  const current = sections.find((s) => s.id === section) ?? sections[0]!;
  const base = `#/projects/${encodeURIComponent(projectToken)}`;
  usePageTitle(current.label);
  return (
    <div className="project">
      <nav className="project-nav" aria-label="Project">
        {sections.map((s) => (
          <a key={s.id} href={`${base}/${s.id}`} aria-current={s === current ? 'page' : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
      <div className="project-main">
        <Suspense
          fallback={
            <p className="loading" role="status">
              Loading…
            </p>
          }
        >
          <current.Screen key={projectToken} projectToken={projectToken} />
        </Suspense>
      </div>
    </div>
  );
}
