import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Outlet } from 'react-router';

/** The centred card of the sign-in screens. */
export function AuthLayout() {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', py: 4 }}>
      <Container maxWidth="sm">
        <Typography component="p" variant="h6" color="primary" sx={{ textAlign: 'center', fontWeight: 700, mb: 2 }}>
          PatientSim
        </Typography>
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
          <Outlet />
        </Paper>
      </Container>
    </Box>
  );
}
