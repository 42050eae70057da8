/** Notifications of the demo: an announcement for all instructors and student2's three popups. */
import type { Database } from '../../db/client.js';
import { media, notification, notificationTarget } from '../../db/schema/index.js';
import { mediaUrl } from '../../modules/media/media.service.js';
import { buildMedia, buildNotification, buildNotificationTarget, type NewCase } from '../builders.js';
import { ANNOUNCEMENT_IMAGE } from '../media-assets.js';
import { DEMO_ACCOUNTS } from './accounts.js';
import { caseNamed } from './cases.js';
import { type DemoContext, idOf } from './context.js';

/**
 * Inserts the notifications, sent by super@demo.test, with the image of the 'new cases' popup.
 * `riversideCases` are the cases a popup links to.
 */
export async function seedNotifications(
  db: Database,
  { now, userIds }: DemoContext,
  riversideCases: readonly NewCase[],
): Promise<void> {
  const senderId = idOf(userIds, 'super@demo.test');
  const goToCases = { label: 'Go to', type: 'URL', metadata: { url: '/authoring/cases' } };
  const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 60 * 60 * 1000);
  const announcement = buildMedia({ ...ANNOUNCEMENT_IMAGE, fileName: 'new-pediatric-cases.png' });

  const forInstructors = buildNotification({
    type: 'INFO',
    title: 'New EMS templates',
    message:
      'Five EMS scenario templates are ready to copy into your library, including Chest Pain at the Gym and Pediatric Asthma Exacerbation.',
    color: '#018786',
    actions: [goToCases],
    senderId,
    date: hoursAgo(48),
  });
  // Newest first: the welcome is the first slide of the carousel.
  const popups = [
    buildNotification({
      type: 'POPUP_MESSAGE',
      title: 'Welcome to PatientSim',
      message:
        'Your instructors at Riverside EMS Academy have prepared a library of scenarios for your cohort. Pick one and run your first call.',
      color: '#018786',
      actions: [goToCases],
      senderId,
      date: hoursAgo(1),
    }),
    buildNotification({
      type: 'POPUP_MESSAGE',
      title: 'New: Pediatric cases',
      message: 'New pediatric scenarios were added this week, from croup at night to a febrile seizure at home.',
      color: '#ff8000',
      media: { type: 'IMAGE', url: mediaUrl(announcement.id) },
      actions: [goToCases],
      senderId,
      date: hoursAgo(2),
    }),
    buildNotification({
      type: 'POPUP_MESSAGE',
      title: 'Skills check on Friday',
      message: 'The airway skills check is on Friday. Practise the opioid overdose scenario before then.',
      color: '#ffb300',
      actions: [
        {
          label: 'Go to',
          type: 'CASE_LINK',
          metadata: { caseId: caseNamed(riversideCases, 'Opioid Overdose in a Parking Garage').id },
        },
      ],
      senderId,
      date: hoursAgo(3),
    }),
  ];
  const student2 = DEMO_ACCOUNTS.find((demo) => demo.email === 'student2@demo.test');
  const student2Label = student2 ? `${student2.givenName} ${student2.familyName}` : null;

  await db.insert(media).values(announcement);
  await db.insert(notification).values([forInstructors, ...popups]);
  await db.insert(notificationTarget).values([
    buildNotificationTarget({
      notificationId: forInstructors.id,
      principalType: 'GROUP',
      principalId: 'ALL_INSTRUCTORS',
      label: 'All instructors',
    }),
    ...popups.map((popup) =>
      buildNotificationTarget({
        notificationId: popup.id,
        principalType: 'USER',
        principalId: idOf(userIds, 'student2@demo.test'),
        label: student2Label,
      }),
    ),
  ]);
}
