CREATE TABLE "analytics_daily" (
	"day" date NOT NULL,
	"dim" text NOT NULL,
	"value" text NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"pageviews" integer DEFAULT 0 NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"exits" integer DEFAULT 0 NOT NULL,
	"bounces" integer DEFAULT 0 NOT NULL,
	"duration_s" bigint DEFAULT 0 NOT NULL,
	"engaged_ms" bigint DEFAULT 0 NOT NULL,
	"posted_visitors" integer DEFAULT 0 NOT NULL,
	"traded_visitors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_day_dim_value_pk" PRIMARY KEY("day","dim","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"ts" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"visitor" bigint,
	"path" text,
	"page_kind" text,
	"referrer_host" text,
	"channel" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"browser" text,
	"os" text,
	"device" text,
	"screen" text,
	"lang" text,
	"engaged_ms" integer,
	"offer_id" uuid,
	"room_id" uuid,
	"user_id" text
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
-- Hand-written: monthly partitions are created ahead by the analytics jobs; rows outside them land here.
CREATE TABLE "analytics_events_default" PARTITION OF "analytics_events" DEFAULT;
--> statement-breakpoint
CREATE TABLE "analytics_offer_funnel" (
	"offer_id" uuid PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"matched_at" timestamp with time zone,
	"room_opened_at" timestamp with time zone,
	"agreed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"first_channel" text DEFAULT 'direct' NOT NULL,
	"first_source" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_days" (
	"day" date PRIMARY KEY NOT NULL,
	"finalised_at" timestamp with time zone,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_visitor_users" (
	"day" date NOT NULL,
	"visitor" bigint NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "analytics_visitor_users_day_visitor_user_id_pk" PRIMARY KEY("day","visitor","user_id")
);
--> statement-breakpoint
CREATE INDEX "analytics_daily_dim_day_idx" ON "analytics_daily" USING btree ("dim","day");--> statement-breakpoint
CREATE INDEX "analytics_events_ts_idx" ON "analytics_events" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "analytics_events_kind_ts_idx" ON "analytics_events" USING btree ("kind","ts");--> statement-breakpoint
CREATE INDEX "analytics_offer_funnel_day_idx" ON "analytics_offer_funnel" USING btree ("day");