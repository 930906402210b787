-- routing_policy_versions was never read: the routing policy's versions live in
-- routing_policies (server/routing/), and only the demo seed wrote one row here.
DROP TABLE "public"."routing_policy_versions";
