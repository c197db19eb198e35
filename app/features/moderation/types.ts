/** One report (通報) as the admin tab lists it. */
export type ReportView = {
  id: string;
  status: string;
  reason: string;
  createdAt: string;
  reporterName: string;
  targetType: string;
  targetId: string;
  /** The user an admin would suspend for this report, when known. */
  targetUserId: string | null;
  targetUserName: string | null;
  targetSuspended: boolean;
  offer: { id: string; status: string; comment: string } | null;
  messageBody: string | null;
};
