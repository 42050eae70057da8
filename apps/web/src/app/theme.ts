import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#1565c0' },
    secondary: { main: '#00796b' },
    background: { default: '#f4f6f8' },
  },
  typography: {
    // System fonts: nothing to download, nothing for the content security policy to allow.
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600 },
    h2: { fontSize: '1.35rem', fontWeight: 600 },
  },
  shape: { borderRadius: 8 },
  components: {
    // Labels show as written (the spec's texts are verbatim), not upper-cased.
    MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
  },
});
