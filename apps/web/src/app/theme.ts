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
    MuiDialog: {
      styleOverrides: {
        // On a phone every dialog fills the screen (UX guide: full-screen dialogs at 390 px): a box
        // with margins leaves too little room for its fields. The same as the `fullScreen` prop,
        // here so that no dialog has to ask for it.
        paper: ({ theme }) => ({
          [theme.breakpoints.down('sm')]: {
            margin: 0,
            width: '100%',
            maxWidth: '100%',
            height: '100%',
            maxHeight: 'none',
            borderRadius: 0,
          },
        }),
      },
    },
  },
});
