// A project's screens under #/projects/<token>/<section>, with links between
// them. Each screen is one entry of `sections`; the first is the default.
import type { ReactNode } from 'react';
import { Editor } from './Editor';
import { MembersScreen } from './MembersScreen';
import { ActivityScreen } from './ActivityScreen';
import { AutoTranslateScreen } from './AutoTranslateScreen';
import { HostingScreen } from './HostingScreen';
import { ImportScreen } from './ImportScreen';
import { ExportScreen } from './ExportScreen';
import { ProjectSettings } from './ProjectSettings';
import { ScreenshotsScreen } from './ScreenshotsScreen';
import { AutomationsScreen } from './AutomationsScreen';
import { GitSyncScreen } from './GitSyncScreen';
import { QualityScreen } from './QualityScreen';
import { GlossaryScreen } from './GlossaryScreen';

interface Section {
  id: string;
  label: string;
  render: (projectToken: string) => ReactNode;
}

const sections: Section[] = [
  { id: 'translations', label: 'Translations', render: (projectToken) => <Editor key={projectToken} projectToken={projectToken} /> },
  { id: 'quality', label: 'Quality', render: (projectToken) => <QualityScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'glossary', label: 'Glossary', render: (projectToken) => <GlossaryScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'screenshots', label: 'Screenshots', render: (projectToken) => <ScreenshotsScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'import', label: 'Import', render: (projectToken) => <ImportScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'export', label: 'Export', render: (projectToken) => <ExportScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'auto-translate', label: 'Auto-translate', render: (projectToken) => <AutoTranslateScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'git', label: 'Git sync', render: (projectToken) => <GitSyncScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'hosting', label: 'Hosting', render: (projectToken) => <HostingScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'automations', label: 'Automations', render: (projectToken) => <AutomationsScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'members', label: 'Members', render: (projectToken) => <MembersScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'activity', label: 'Activity', render: (projectToken) => <ActivityScreen key={projectToken} projectToken={projectToken} /> },
  { id: 'settings', label: 'Settings', render: (projectToken) => <ProjectSettings key={projectToken} projectToken={projectToken} /> },
];

export function ProjectLayout({ projectToken, section }: { projectToken: string; section: string | undefined }) {
  const current = sections.find((s) => s.id === section) ?? sections[0]!;
  const base = `#/projects/${encodeURIComponent(projectToken)}`;
  return (
    <div className="project">
      <nav className="project-nav" aria-label="Project">
        {sections.map((s) => (
          <a key={s.id} href={`${base}/${s.id}`} aria-current={s === current ? 'page' : undefined}>{s.label}</a>
        ))}
      </nav>
      <div className="project-main">{current.render(projectToken)}</div>
    </div>
  );
}
