export interface Note {
  id: string;
  title: string;
  body: string;
}

/** In-memory notes behind create_note / delete_note. */
export class NotesStore {
  private readonly notes = new Map<string, Note>();
  private counter = 0;

  create(title: string, body: string): Note {
    this.counter += 1;
    const note = { id: `note-${this.counter}`, title, body };
    this.notes.set(note.id, note);
    return note;
  }

  delete(id: string): Note | undefined {
    const note = this.notes.get(id);
    this.notes.delete(id);
    return note;
  }
}
