// Progress events of a publication (topic 'project-publications'), published
// after the state they describe is committed. While files are written, about
// one event per percent, so a large publication does not flood subscribers.
import { events, type PublicationEvent } from '../events/pubsub.js';

export type Stage = 'STARTED' | 'READING' | 'WRITING' | 'SWITCHING' | 'COMPLETE' | 'FAILED';

export class ProgressReporter {
  private filesDone = 0;
  private filesTotal = 0;
  private stage: Stage = 'STARTED';

  constructor(private readonly base: { publicationId: number; projectId: number; environmentKey: string }) {}

  private emit(state: 'RUNNING' | 'COMPLETE' | 'FAILED', message = ''): void {
    const event: PublicationEvent = {
      ...this.base,
      stage: this.stage,
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      state,
      message,
      at: new Date().toISOString(),
    };
    events().publish('project-publications', this.base.projectId, event);
  }

  stageChanged(stage: Stage, filesTotal = this.filesTotal): void {
    this.stage = stage;
    this.filesTotal = filesTotal;
    this.emit('RUNNING');
  }

  fileDone(done: number): void {
    this.filesDone = done;
    const step = Math.max(1, Math.floor(this.filesTotal / 100));
    if (done % step === 0 || done === this.filesTotal) this.emit('RUNNING');
  }

  completed(): void {
    this.stage = 'COMPLETE';
    this.emit('COMPLETE');
  }

  failed(message: string): void {
    this.stage = 'FAILED';
    this.emit('FAILED', message);
  }
}
