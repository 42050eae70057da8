/**
 * Reference content of the demo data: patients (avatars), places, scenarios and tutorials.
 * Plain data only; `demo.ts` turns it into rows. The picture of every avatar and scene kind
 * is a file in `assets/` (see `media-assets.ts`).
 */
import type { ProductType } from '@patientsim/domain/product/product-types';

export type AvatarSpec = { key: string; name: string };

/** The kinds of scene pictures; every location shows the picture of its kind. */
export const SCENE_KINDS = ['home', 'street', 'public', 'vehicle', 'hospital', 'field'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];

export type LocationSpec = { key: string; name: string; scene: SceneKind };

export const AVATARS = [
  // EMS
  { key: 'robert-miller', name: 'Robert Miller' },
  { key: 'maria-gonzalez', name: 'Maria Gonzalez' },
  { key: 'ethan-brooks', name: 'Ethan Brooks' },
  { key: 'dorothy-hayes', name: 'Dorothy Hayes' },
  { key: 'james-okafor', name: 'James Okafor' },
  { key: 'lily-chen', name: 'Lily Chen' },
  { key: 'marcus-reed', name: 'Marcus Reed' },
  { key: 'sofia-rossi', name: 'Sofia Rossi' },
  { key: 'harold-jensen', name: 'Harold Jensen' },
  { key: 'aisha-khan', name: 'Aisha Khan' },
  // NURSING
  { key: 'evelyn-park', name: 'Evelyn Park' },
  { key: 'thomas-wright', name: 'Thomas Wright' },
  { key: 'grace-adeyemi', name: 'Grace Adeyemi' },
  { key: 'noah-fischer', name: 'Noah Fischer' },
  // MILITARY
  { key: 'daniel-cruz', name: 'SGT Daniel Cruz' },
  { key: 'kayla-morgan', name: 'SPC Kayla Morgan' },
  { key: 'ryan-walsh', name: 'CPL Ryan Walsh' },
] as const satisfies readonly AvatarSpec[];
export type AvatarKey = (typeof AVATARS)[number]['key'];

export const LOCATIONS = [
  // EMS scenes
  { key: 'fitness-center', name: 'Fitness Center', scene: 'public' },
  { key: 'playground', name: 'Playground', scene: 'public' },
  { key: 'bus-stop', name: 'City Bus Stop', scene: 'street' },
  { key: 'parking-garage', name: 'Parking Garage', scene: 'street' },
  { key: 'residence', name: 'Residence', scene: 'home' },
  { key: 'nursing-home', name: 'Nursing Home', scene: 'home' },
  { key: 'highway', name: 'Highway Shoulder', scene: 'street' },
  { key: 'construction-site', name: 'Construction Site', scene: 'public' },
  { key: 'sports-field', name: 'Sports Field', scene: 'public' },
  { key: 'grocery-store', name: 'Grocery Store', scene: 'public' },
  { key: 'city-street', name: 'City Street', scene: 'street' },
  { key: 'swimming-pool', name: 'Swimming Pool', scene: 'public' },
  { key: 'school', name: 'Elementary School', scene: 'public' },
  { key: 'hiking-trail', name: 'Hiking Trail', scene: 'field' },
  { key: 'park', name: 'City Park', scene: 'public' },
  { key: 'ambulance', name: 'Ambulance', scene: 'vehicle' },
  // EMS destinations
  { key: 'emergency-department', name: 'Emergency Department', scene: 'hospital' },
  { key: 'trauma-center', name: 'Trauma Center', scene: 'hospital' },
  { key: 'labor-delivery', name: 'Labor and Delivery', scene: 'hospital' },
  // NURSING
  { key: 'med-surg-ward', name: 'Medical-Surgical Ward', scene: 'hospital' },
  { key: 'icu', name: 'Intensive Care Unit', scene: 'hospital' },
  { key: 'postpartum-unit', name: 'Postpartum Unit', scene: 'hospital' },
  { key: 'pediatric-ward', name: 'Pediatric Ward', scene: 'hospital' },
  { key: 'step-down-unit', name: 'Cardiac Step-Down Unit', scene: 'hospital' },
  // MILITARY
  { key: 'vehicle-checkpoint', name: 'Vehicle Checkpoint', scene: 'field' },
  { key: 'convoy-route', name: 'Convoy Route', scene: 'field' },
  { key: 'training-range', name: 'Training Range', scene: 'field' },
  { key: 'aid-station', name: 'Role 1 Aid Station', scene: 'field' },
  { key: 'forward-surgical', name: 'Forward Surgical Team', scene: 'hospital' },
  { key: 'medevac', name: 'MEDEVAC Helicopter', scene: 'vehicle' },
] as const satisfies readonly LocationSpec[];
export type LocationKey = (typeof LOCATIONS)[number]['key'];

export type ScenarioSpec = {
  name: string;
  avatar: AvatarKey;
  start: LocationKey;
  end: LocationKey;
  chiefComplaint: string;
  learningObjectives: string;
  tags: string;
};

function scenario(
  name: string,
  avatar: AvatarKey,
  start: LocationKey,
  end: LocationKey,
  chiefComplaint: string,
  learningObjectives: string,
  tags: string,
): ScenarioSpec {
  return { name, avatar, start, end, chiefComplaint, learningObjectives, tags };
}

/** The scenario library of the EMS academy: enough cases for the list to scroll. */
export const EMS_LIBRARY: readonly ScenarioSpec[] = [
  scenario('Chest Pain at the Gym', 'robert-miller', 'fitness-center', 'emergency-department', 'Crushing chest pain during a workout', 'Recognise a STEMI on the 12-lead; give aspirin and nitroglycerin; pre-alert the cath lab', 'Cardiac, Adult, ALS'),
  scenario('Pediatric Asthma Exacerbation', 'ethan-brooks', 'playground', 'emergency-department', 'Wheezing and unable to finish sentences', 'Assess work of breathing in a child; nebulised salbutamol and ipratropium; weight-based dosing', 'Respiratory, Pediatric'),
  scenario('Hypoglycemia at the Bus Stop', 'james-okafor', 'bus-stop', 'emergency-department', 'Confused man, sweating, known diabetic', 'Check blood glucose early; IV dextrose or IM glucagon; reassess mental status', 'Metabolic, Adult, BLS'),
  scenario('Opioid Overdose in a Parking Garage', 'marcus-reed', 'parking-garage', 'emergency-department', 'Unresponsive with pinpoint pupils', 'Support ventilation first; titrate naloxone to breathing; scene safety with sharps', 'Toxicology, Airway'),
  scenario('Elderly Fall with Hip Fracture', 'dorothy-hayes', 'residence', 'trauma-center', 'Fell in the kitchen, cannot stand', 'Look for the cause of the fall; splint and analgesia; pressure area care', 'Trauma, Geriatric'),
  scenario('Febrile Seizure', 'lily-chen', 'residence', 'emergency-department', 'Toddler shaking all over, now drowsy', 'Differentiate simple from complex seizures; temperature management; reassure the parents', 'Neurology, Pediatric'),
  scenario('Anaphylaxis at a Picnic', 'aisha-khan', 'park', 'emergency-department', 'Hives and throat tightness after lunch', 'Give IM epinephrine early; fluids for hypotension; watch for a biphasic reaction', 'Allergy, Airway'),
  scenario('Imminent Delivery in the Living Room', 'sofia-rossi', 'residence', 'labor-delivery', 'Contractions two minutes apart, urge to push', 'Prepare for a field delivery; newborn assessment and APGAR; manage the third stage', 'Obstetrics, Neonatal'),
  scenario('Stroke Alert at the Nursing Home', 'harold-jensen', 'nursing-home', 'emergency-department', 'Sudden right-sided weakness and slurred speech', 'Use a stroke scale; establish last known well; choose the stroke centre', 'Neurology, Geriatric'),
  scenario('Motorcycle Crash on the Highway', 'marcus-reed', 'highway', 'trauma-center', 'Rider thrown from a motorcycle, helmet on', 'Primary survey with spinal motion restriction; helmet removal; trauma triage criteria', 'Trauma, Adult'),
  scenario('Fall from Scaffolding', 'james-okafor', 'construction-site', 'trauma-center', 'Worker fell about four metres', 'Mechanism of injury; pelvic binder; permissive hypotension', 'Trauma, Occupational'),
  scenario('COPD Exacerbation', 'harold-jensen', 'residence', 'emergency-department', 'Worsening shortness of breath for two days', 'Controlled oxygen; bronchodilators; recognise when to start CPAP', 'Respiratory, Geriatric'),
  scenario('Heat Exhaustion at the Marathon', 'maria-gonzalez', 'sports-field', 'emergency-department', 'Runner collapsed near the finish line', 'Differentiate heat exhaustion from heat stroke; active cooling; sodium balance', 'Environmental, Adult'),
  scenario('Diabetic Ketoacidosis', 'aisha-khan', 'residence', 'emergency-department', 'Vomiting, abdominal pain and fast breathing', 'Recognise Kussmaul breathing; fluid resuscitation; glucose and ketone checks', 'Metabolic, Adolescent'),
  scenario('Cardiac Arrest in the Ambulance', 'robert-miller', 'ambulance', 'emergency-department', 'Patient becomes unresponsive during transport', 'High-quality CPR in a moving vehicle; defibrillation; post-ROSC care', 'Cardiac, Resuscitation'),
  scenario('Syncope at the Grocery Store', 'dorothy-hayes', 'grocery-store', 'emergency-department', 'Fainted in the checkout line', 'Look for cardiac causes of syncope; orthostatic vitals; medication review', 'Cardiac, Geriatric'),
  scenario('Pediatric Croup at Night', 'lily-chen', 'residence', 'emergency-department', 'Barking cough and stridor', 'Keep the child calm; nebulised epinephrine; assess croup severity', 'Respiratory, Pediatric'),
  scenario('Sepsis in a Nursing Home Resident', 'dorothy-hayes', 'nursing-home', 'emergency-department', 'New confusion and fever', 'Screen for sepsis; fluid bolus; early hospital notification', 'Infection, Geriatric'),
  scenario('Ectopic Pregnancy', 'sofia-rossi', 'residence', 'emergency-department', 'Sudden lower abdominal pain and dizziness', 'Recognise hemorrhagic shock in early pregnancy; rapid transport; IV access', 'Obstetrics, Shock'),
  scenario('Penetrating Chest Trauma', 'marcus-reed', 'city-street', 'trauma-center', 'Stab wound to the left chest', 'Seal an open chest wound; recognise tension physiology; needle decompression', 'Trauma, Chest'),
  scenario('Hyperkalemia in a Dialysis Patient', 'james-okafor', 'residence', 'emergency-department', 'Weakness after a missed dialysis session', 'Read peaked T waves; calcium and salbutamol; cardiac monitoring', 'Renal, Cardiac'),
  scenario('Near-Drowning at the Pool', 'ethan-brooks', 'swimming-pool', 'emergency-department', 'Child pulled from the water, coughing', 'Airway and ventilation after submersion; hypothermia prevention; observation advice', 'Environmental, Pediatric'),
  scenario('Carbon Monoxide Exposure', 'maria-gonzalez', 'residence', 'emergency-department', 'Headache and nausea, the whole family unwell', 'Scene safety; high-flow oxygen; the limits of pulse oximetry', 'Toxicology, Environmental'),
  scenario('Acute Pulmonary Edema', 'harold-jensen', 'residence', 'emergency-department', 'Cannot breathe lying down, frothy sputum', 'CPAP; nitrate therapy; position of comfort', 'Cardiac, Respiratory'),
  scenario('Symptomatic Bradycardia', 'dorothy-hayes', 'nursing-home', 'emergency-department', 'Dizzy with a heart rate of 38', 'Atropine; transcutaneous pacing; identify medication causes', 'Cardiac, Geriatric'),
  scenario('Supraventricular Tachycardia', 'aisha-khan', 'school', 'emergency-department', 'Racing heart and light-headedness', 'Vagal manoeuvres; adenosine; synchronised cardioversion criteria', 'Cardiac, Adolescent'),
  scenario('Status Epilepticus', 'james-okafor', 'bus-stop', 'emergency-department', 'Seizing for more than five minutes', 'Benzodiazepine dosing; airway protection; glucose check', 'Neurology, Adult'),
  scenario('Alcohol Withdrawal', 'robert-miller', 'city-street', 'emergency-department', 'Tremor, sweating and hallucinations', 'Recognise delirium tremens; benzodiazepines; thiamine', 'Toxicology, Behavioral'),
  scenario('Burns from a Kitchen Fire', 'maria-gonzalez', 'residence', 'trauma-center', 'Burns to both arms and the face', 'Estimate burn surface area; airway burns; fluid resuscitation', 'Trauma, Burns'),
  scenario('Rollover Collision with Entrapment', 'marcus-reed', 'highway', 'trauma-center', 'Driver trapped in an overturned car', 'Work with fire and rescue; rapid extrication; crush considerations', 'Trauma, Extrication'),
  scenario('Choking Toddler', 'lily-chen', 'residence', 'emergency-department', 'Toddler choking on a grape', 'Foreign body airway obstruction manoeuvres by age; Magill forceps', 'Airway, Pediatric'),
  scenario('Eclampsia', 'sofia-rossi', 'residence', 'labor-delivery', 'Pregnant woman seizing at 36 weeks', 'Magnesium sulphate; left lateral position; blood pressure control', 'Obstetrics, Neurology'),
  scenario('Hypothermia on a Winter Night', 'harold-jensen', 'city-street', 'emergency-department', 'Found outside, cold and confused', 'Gentle handling; passive and active rewarming; modified resuscitation', 'Environmental, Geriatric'),
  scenario('Ruptured Abdominal Aortic Aneurysm', 'robert-miller', 'residence', 'trauma-center', 'Tearing back pain and collapse', 'Recognise the pulsatile mass; permissive hypotension; direct to vascular surgery', 'Cardiovascular, Shock'),
  scenario('Behavioral Emergency with Agitation', 'marcus-reed', 'city-street', 'emergency-department', 'Shouting and pacing, police on scene', 'Verbal de-escalation; safe restraint; look for medical causes', 'Behavioral, Safety'),
  scenario('Snakebite on a Hiking Trail', 'maria-gonzalez', 'hiking-trail', 'emergency-department', 'Bitten on the ankle, swelling spreading', 'Immobilisation; mark the swelling; what not to do', 'Environmental, Toxicology'),
  scenario('Vomiting Toddler with Dehydration', 'ethan-brooks', 'residence', 'emergency-department', 'Vomiting for two days, no wet nappies', 'Assess dehydration in a child; IV or IO access; fluid bolus by weight', 'Pediatric, Fluids'),
  scenario('Tension Pneumothorax after a Fall', 'james-okafor', 'construction-site', 'trauma-center', 'Fell onto rebar, increasing breathlessness', 'Recognise tension pneumothorax; needle decompression landmarks', 'Trauma, Chest'),
  scenario('Inferior MI with Right Ventricular Involvement', 'harold-jensen', 'residence', 'emergency-department', 'Chest pain and low blood pressure', 'Right-sided ECG; caution with nitrates; fluid challenge', 'Cardiac, ALS'),
  scenario('Acute Asthma in an Adult', 'maria-gonzalez', 'fitness-center', 'emergency-department', 'Tight chest and wheeze after exercise', 'Peak flow; continuous nebulisation; magnesium for severe asthma', 'Respiratory, Adult'),
  scenario('Head Injury on the Football Field', 'aisha-khan', 'sports-field', 'trauma-center', 'Collision with another player, brief loss of consciousness', 'Glasgow Coma Scale trends; concussion; signs of raised intracranial pressure', 'Trauma, Neurology'),
  scenario('Hypertensive Emergency', 'james-okafor', 'residence', 'emergency-department', 'Severe headache and blurred vision', 'End-organ damage signs; gradual blood pressure reduction', 'Cardiovascular, Adult'),
  scenario('Pedestrian Struck by a Car', 'dorothy-hayes', 'city-street', 'trauma-center', 'Hit by a car at low speed', 'Injury patterns in older pedestrians; anticoagulant use; trauma triage', 'Trauma, Geriatric'),
  scenario('Breech Delivery in the Ambulance', 'sofia-rossi', 'ambulance', 'labor-delivery', 'Baby presenting feet first', 'Hands-off breech delivery; when to intervene; neonatal resuscitation', 'Obstetrics, Neonatal'),
  scenario('Stab Wound to the Abdomen', 'marcus-reed', 'parking-garage', 'trauma-center', 'Stabbed once in the abdomen', 'Scene safety; evisceration care; load and go', 'Trauma, Abdomen'),
  scenario('Atrial Fibrillation with Rapid Response', 'harold-jensen', 'nursing-home', 'emergency-department', 'Palpitations and breathlessness', 'Rate versus rhythm; stable versus unstable; anticoagulation history', 'Cardiac, Geriatric'),
  scenario('Pediatric Anaphylaxis at School', 'ethan-brooks', 'school', 'emergency-department', 'Peanut exposure at lunch, lips swelling', 'Auto-injector use; repeat epinephrine dosing; working with school staff', 'Allergy, Pediatric'),
  scenario('Heat Stroke at a Construction Site', 'james-okafor', 'construction-site', 'emergency-department', 'Worker confused and hot to the touch', 'Cool first, transport second; core temperature; seizures in heat stroke', 'Environmental, Occupational'),
  scenario('Spinal Injury after a Shallow Dive', 'aisha-khan', 'swimming-pool', 'trauma-center', 'Dived into the shallow end, cannot feel legs', 'In-water spinal motion restriction; neurogenic shock', 'Trauma, Spine'),
  scenario('Tricyclic Antidepressant Overdose', 'maria-gonzalez', 'residence', 'emergency-department', 'Drowsy with a wide-complex tachycardia', 'Recognise QRS widening; sodium bicarbonate; seizure risk', 'Toxicology, Cardiac'),
  scenario('Cardiac Tamponade', 'robert-miller', 'residence', 'trauma-center', 'Low blood pressure and distended neck veins', "Beck's triad; rapid transport; fluid as a bridge", 'Cardiac, Shock'),
  scenario('Ventricular Fibrillation at the Gym', 'james-okafor', 'fitness-center', 'emergency-department', 'Collapsed on the treadmill', 'Bystander AED; shock-first workflow; team roles in resuscitation', 'Cardiac, Resuscitation'),
  scenario('Meningitis in a Teenager', 'aisha-khan', 'residence', 'emergency-department', 'Fever, neck stiffness and a rash', 'Non-blanching rash; infection control; early antibiotics', 'Infection, Adolescent'),
  scenario('Upper GI Bleed', 'harold-jensen', 'residence', 'emergency-department', 'Vomiting blood', 'Shock index; airway risk; anticoagulant history', 'Gastrointestinal, Shock'),
  scenario('Postpartum Hemorrhage at Home', 'sofia-rossi', 'residence', 'labor-delivery', 'Heavy bleeding after a home birth', 'Fundal massage; tranexamic acid; shock management', 'Obstetrics, Shock'),
  scenario('Crush Injury in a Warehouse', 'james-okafor', 'construction-site', 'trauma-center', 'Leg pinned under a pallet for two hours', 'Crush syndrome; fluids before release; hyperkalemia', 'Trauma, Occupational'),
  scenario('Pediatric Cardiac Arrest', 'lily-chen', 'residence', 'emergency-department', 'Toddler found unresponsive', 'Pediatric CPR ratios; weight-based epinephrine; family presence', 'Resuscitation, Pediatric'),
  scenario('Bee Sting with Airway Swelling', 'dorothy-hayes', 'park', 'emergency-department', 'Stung on the neck, voice changing', 'Airway assessment in angioedema; epinephrine; difficult airway planning', 'Allergy, Airway'),
  scenario('Chest Pain after Cocaine Use', 'marcus-reed', 'city-street', 'emergency-department', 'Chest pain and agitation at a party', 'Benzodiazepines first; avoid beta-blockers; hyperthermia', 'Toxicology, Cardiac'),
  scenario('Bus Crash with Multiple Patients', 'maria-gonzalez', 'bus-stop', 'trauma-center', 'Bus struck a shelter, several injured', 'START triage; scene command; resource requests', 'Trauma, MCI'),
  scenario('Pulmonary Embolism after a Long Flight', 'sofia-rossi', 'residence', 'emergency-department', 'Sudden breathlessness and chest pain', 'Risk factors for PE; oxygen; recognise obstructive shock', 'Respiratory, Cardiovascular'),
  scenario('Infant Left in a Hot Car', 'lily-chen', 'parking-garage', 'emergency-department', 'Infant found in a car on a hot day', 'Pediatric heat stroke; rapid cooling; safeguarding', 'Environmental, Pediatric'),
  scenario('Electrical Injury', 'james-okafor', 'construction-site', 'trauma-center', 'Contact with a live cable', 'Scene safety; entry and exit wounds; arrhythmia monitoring', 'Trauma, Burns'),
  scenario('Refusal of Care after a Minor Collision', 'dorothy-hayes', 'highway', 'residence', 'Driver declines transport after a fender bender', 'Capacity assessment; informed refusal; documentation', 'Legal, Geriatric'),
  scenario('Sickle Cell Crisis', 'aisha-khan', 'school', 'emergency-department', 'Severe pain in the back and legs', 'Pain management; acute chest syndrome; oxygen and fluids', 'Hematology, Adolescent'),
];

/** Template scenarios of each product type, held by that type's template organisation. */
export const TEMPLATE_LIBRARY: Record<ProductType, readonly ScenarioSpec[]> = {
  EMS: [
    scenario('Chest Pain at the Gym', 'robert-miller', 'fitness-center', 'emergency-department', 'Crushing chest pain during a workout', 'Recognise a STEMI on the 12-lead; give aspirin and nitroglycerin; pre-alert the cath lab', 'Cardiac, Adult, ALS'),
    scenario('Pediatric Asthma Exacerbation', 'ethan-brooks', 'playground', 'emergency-department', 'Wheezing and unable to finish sentences', 'Assess work of breathing in a child; nebulised salbutamol and ipratropium; weight-based dosing', 'Respiratory, Pediatric'),
    scenario('Hypoglycemia at the Bus Stop', 'james-okafor', 'bus-stop', 'emergency-department', 'Confused man, sweating, known diabetic', 'Check blood glucose early; IV dextrose or IM glucagon; reassess mental status', 'Metabolic, Adult, BLS'),
    scenario('Opioid Overdose in a Parking Garage', 'marcus-reed', 'parking-garage', 'emergency-department', 'Unresponsive with pinpoint pupils', 'Support ventilation first; titrate naloxone to breathing; scene safety with sharps', 'Toxicology, Airway'),
    scenario('Imminent Delivery in the Living Room', 'sofia-rossi', 'residence', 'labor-delivery', 'Contractions two minutes apart, urge to push', 'Prepare for a field delivery; newborn assessment and APGAR; manage the third stage', 'Obstetrics, Neonatal'),
  ],
  NURSING: [
    scenario('Post-Operative Sepsis on the Surgical Ward', 'thomas-wright', 'med-surg-ward', 'icu', 'Day two after bowel surgery: fever and falling blood pressure', 'Recognise deterioration with an early warning score; sepsis bundle; SBAR handover', 'Infection, Surgical'),
    scenario('Insulin Infusion Titration', 'evelyn-park', 'icu', 'icu', 'Glucose of 28 mmol/L on an insulin infusion', 'Follow an insulin infusion protocol; potassium monitoring; hourly glucose charting', 'Metabolic, Critical Care'),
    scenario('Heart Failure Exacerbation', 'thomas-wright', 'step-down-unit', 'icu', 'Increasing breathlessness and ankle swelling', 'Fluid balance and daily weights; diuretic response; escalation criteria', 'Cardiac, Adult'),
    scenario('Postpartum Hemorrhage', 'grace-adeyemi', 'postpartum-unit', 'icu', 'Heavy bleeding one hour after delivery', 'Quantify blood loss; uterotonic medications; call for help early', 'Obstetrics, Shock'),
    scenario('Pediatric Dehydration', 'noah-fischer', 'pediatric-ward', 'pediatric-ward', 'Nine-year-old with gastroenteritis, dry mouth', 'Assess dehydration; calculate maintenance fluids; family education', 'Pediatric, Fluids'),
  ],
  MILITARY: [
    scenario('Blast Injury Triage', 'daniel-cruz', 'convoy-route', 'aid-station', 'IED strike on the lead vehicle, three casualties', 'Triage under fire; MARCH sequence; casualty collection point', 'TCCC, Blast, Triage'),
    scenario('Tension Pneumothorax at the Checkpoint', 'ryan-walsh', 'vehicle-checkpoint', 'forward-surgical', 'Gunshot wound to the right chest, worsening breathing', 'Needle decompression; chest seal; reassessment in tactical field care', 'TCCC, Chest'),
    scenario('Tourniquet Conversion in Prolonged Field Care', 'kayla-morgan', 'aid-station', 'medevac', 'Tourniquet on for 90 minutes, evacuation delayed', 'Criteria for tourniquet conversion; wound packing; documentation on the casualty card', 'Prolonged Field Care, Hemorrhage'),
    scenario('Heat Stroke on a Ruck March', 'kayla-morgan', 'training-range', 'aid-station', 'Soldier collapsed at kilometre 18', 'Immediate cooling; core temperature; evacuation decision', 'Environmental, Training'),
    scenario('Convoy Ambush with Multiple Casualties', 'daniel-cruz', 'convoy-route', 'medevac', 'Small-arms ambush, four wounded', 'Care under fire; 9-line MEDEVAC request; handover to flight medics', 'TCCC, MCI'),
  ],
};

/** A few cases of the nursing school's own library. */
export const NURSING_LIBRARY: readonly ScenarioSpec[] = [
  scenario('Medication Error on the Night Shift', 'evelyn-park', 'med-surg-ward', 'med-surg-ward', 'Patient drowsy after an opioid double dose', 'Recognise opioid toxicity; naloxone; incident reporting', 'Safety, Pharmacology'),
  scenario('Chest Pain after Hip Replacement', 'thomas-wright', 'med-surg-ward', 'step-down-unit', 'Sudden chest pain on day three after surgery', 'Recognise pulmonary embolism; rapid response call; SBAR', 'Respiratory, Surgical'),
  scenario('Asthma Action Plan Teaching', 'noah-fischer', 'pediatric-ward', 'pediatric-ward', 'Discharge day after an asthma admission', 'Inhaler technique; spacer use; teach-back with the family', 'Education, Pediatric'),
];

/** A few cases of the military unit's own library. */
export const MILITARY_LIBRARY: readonly ScenarioSpec[] = [
  scenario('Junctional Hemorrhage at the Range', 'ryan-walsh', 'training-range', 'aid-station', 'Accidental discharge, groin wound bleeding heavily', 'Junctional tourniquet; wound packing; tranexamic acid', 'TCCC, Hemorrhage'),
  scenario('Hypothermia during Night Extraction', 'kayla-morgan', 'medevac', 'forward-surgical', 'Casualty shivering after a river crossing', 'Hypothermia prevention kit; lethal triad; en-route care', 'Environmental, Evacuation'),
];

export const TUTORIAL_CATEGORIES = ['SCENARIO_BUILDER', 'SCENARIO_SELECT', 'SCENARIO_LOGIC', 'ORG_MANAGEMENT'] as const;
export type TutorialCategory = (typeof TUTORIAL_CATEGORIES)[number];

/** `productType: null` means the tutorial is shown for every product type. */
export type TutorialSpec = {
  title: string;
  category: TutorialCategory;
  productType: ProductType | null;
  ordinal: number;
};

export const TUTORIALS: readonly TutorialSpec[] = [
  { title: 'Building your first scenario', category: 'SCENARIO_BUILDER', productType: 'EMS', ordinal: 1 },
  { title: 'Adding vital sign trends', category: 'SCENARIO_BUILDER', productType: 'EMS', ordinal: 2 },
  { title: 'Finding and filtering scenarios', category: 'SCENARIO_SELECT', productType: 'EMS', ordinal: 1 },
  { title: 'Favorites and shared scenarios', category: 'SCENARIO_SELECT', productType: 'EMS', ordinal: 2 },
  { title: 'Effect chains explained', category: 'SCENARIO_LOGIC', productType: 'EMS', ordinal: 1 },
  { title: 'Medication responses and timers', category: 'SCENARIO_LOGIC', productType: 'EMS', ordinal: 2 },
  { title: 'Inviting your students', category: 'ORG_MANAGEMENT', productType: 'EMS', ordinal: 1 },
  { title: 'Managing groups and seats', category: 'ORG_MANAGEMENT', productType: 'EMS', ordinal: 2 },
  { title: 'Building a ward scenario', category: 'SCENARIO_BUILDER', productType: 'NURSING', ordinal: 1 },
  { title: 'Choosing scenarios for a clinical day', category: 'SCENARIO_SELECT', productType: 'NURSING', ordinal: 1 },
  { title: 'Charting and transfer of care', category: 'SCENARIO_LOGIC', productType: 'NURSING', ordinal: 1 },
  { title: 'Setting up a nursing cohort', category: 'ORG_MANAGEMENT', productType: 'NURSING', ordinal: 1 },
  { title: 'Building a tactical casualty scenario', category: 'SCENARIO_BUILDER', productType: 'MILITARY', ordinal: 1 },
  { title: 'Reviewing the grading archive', category: 'ORG_MANAGEMENT', productType: null, ordinal: 3 },
];
