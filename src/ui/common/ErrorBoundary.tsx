import { Component, type ReactNode } from 'react';

/**
 * A part of the page that failed to render stays a message instead of blanking the app (issue #39
 * M7): a screen, or one run whose stored figures cannot be shown — there it offers what is needed
 * to get rid of it (`actions`, e.g. "Delete this run"). "Try again" renders the part afresh. React
 * itself logs the error to the console.
 */
export class ErrorBoundary extends Component<
  { what: string; hint?: string; actions?: ReactNode; children: ReactNode },
  { error: Error | null }
> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="alert">
        <p>
          <strong>{this.props.what} could not be shown.</strong> {this.props.hint}{' '}
          <span className="muted">({error.message.slice(0, 300)})</span>
        </p>
        <div className="row">
          <button type="button" onClick={() => this.setState({ error: null })}>
            Try again
          </button>
          {this.props.actions}
        </div>
      </div>
    );
  }
}
