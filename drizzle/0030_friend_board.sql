CREATE TABLE "friend_applications" (
	"post_id" uuid NOT NULL,
	"applicant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "friend_applications_post_id_applicant_id_pk" PRIMARY KEY("post_id","applicant_id")
);
--> statement-breakpoint
CREATE TABLE "friend_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"purposes" text[] NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"set_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "friend_posts_status_check" CHECK ("friend_posts"."status" in ('open', 'closed', 'expired')),
	CONSTRAINT "friend_posts_purposes_check" CHECK (cardinality("friend_posts"."purposes") > 0 and "friend_posts"."purposes" <@ array['trade', 'challenge', 'battle', 'other']::text[])
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
ALTER TABLE "friend_applications" ADD CONSTRAINT "friend_applications_post_id_friend_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."friend_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friend_applications" ADD CONSTRAINT "friend_applications_applicant_id_users_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "friend_posts" ADD CONSTRAINT "friend_posts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "friend_posts_one_open_idx" ON "friend_posts" USING btree ("owner_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "friend_posts_board_idx" ON "friend_posts" USING btree ("raised_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE status = 'open';--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('message', 'response', 'match', 'step', 'expiring', 'want', 'report', 'friend'));