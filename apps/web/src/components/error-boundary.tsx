import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Component, type ErrorInfo, type ReactNode } from 'react';

type Props = {
  /** What failed, for the message: 'The notifications could not be shown.' */
  message: string;
  children: ReactNode;
};

type State = { hasFailed: boolean };

/**
 * Keeps a panel that can fail alone (a notifications list) from taking the page with it: the
 * panel is replaced by a message with a way to try again.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { hasFailed: false };

  static getDerivedStateFromError(): State {
    return { hasFailed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render() {
    if (!this.state.hasFailed) return this.props.children;
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => this.setState({ hasFailed: false })}>
            Try again
          </Button>
        }
      >
        {this.props.message}
      </Alert>
    );
  }
}
