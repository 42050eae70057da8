/** The case fields the library's list and preview select (CaseListItemSchema in the domain). */
export const CASE_LIST_FIELDS = `
  id name tags
  dispatch { learningObjectives { caption { en } displayed } chiefComplaint { caption { en } displayed } }
  author { id name }
  _avatar { id name { en } picture { url } }
  _startLocation { name { en } picture { url } }
  _endLocation { name { en } picture { url } }
  isTemplate isFavorite lastPlayed lastAccessed createdAt
  needsEcUpdate ignoreEcUpdate updateStatus errorsCount warningsCount
  origin published applab
`;
