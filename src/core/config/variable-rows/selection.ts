/** Rows of the variables table: which certificates, the issuer's name, the platform-wide names and annotations. */
import {
  ISSUER_TYPES,
  ISSUER_TYPE_VALUES,
  DEFAULT_ISSUER,
  ANNOTATION_KEYS,
  ANNOTATION_PREFIX,
  enumOf,
  type Variable,
} from '../variable-types.js';

/** The issuer types for which the role creates its ClusterIssuer (all but none). */
const MAKE_AN_ISSUER = ISSUER_TYPE_VALUES.filter((t) => ISSUER_TYPES[t].spec !== undefined);

/**
 * Variables under the ingress prefix that the ingress role takes per ingress (its own parameters, or
 * global overrides of them): not certificate settings, but never unknown names either.
 */
export const INGRESS_ROLE_VARIABLES: readonly string[] = [
  'name',
  'annotations',
  'host',
  'class_name',
  'endpoint',
  'service_name',
  'service_port',
].map((s) => `openstack_helm_ingress_${s}`);

export const SELECTION_ROWS: Variable[] = [
  // Endpoint certificate selection
  {
    name: 'openstack_helm_ingress_wildcard_domain',
    type: 'domain',
    required: false,
    secret: false,
    section: 'Endpoint certificates',
    example: 'cloud.example.com',
    help: 'One wildcard certificate for *.<domain> instead of one certificate per endpoint (unset: individual certificates)',
  },
  {
    name: 'openstack_helm_ingress_secret_name',
    type: 'string',
    required: false,
    secret: false,
    appliesWhen: { issuer: ['none'] },
    section: 'Endpoint certificates',
    example: 'wildcard-certs',
    help: 'Name of the TLS secret holding a supplied wildcard certificate (requires cluster_issuer_type: none)',
  },
  {
    name: 'cluster_issuer_type',
    ...enumOf(ISSUER_TYPES),
    default: DEFAULT_ISSUER,
    required: false,
    secret: false,
    section: 'Endpoint certificates',
    help: 'Who issues the endpoint certificates',
  },
  {
    name: 'atmosphere_ingress_annotations',
    type: 'map',
    keys: ANNOTATION_KEYS,
    required: false,
    secret: false,
    section: 'Certificate subject annotations',
    example: `${ANNOTATION_PREFIX}/subject-organizations: Example Org`,
    help: `Annotations on all ingresses; only ${ANNOTATION_PREFIX}/subject-* fields (e.g. when a Venafi zone enforces them)`,
  },
  {
    name: 'ingress_global_annotations',
    type: 'map',
    keys: ANNOTATION_KEYS,
    required: false,
    secret: false,
    deprecatedBy: 'atmosphere_ingress_annotations',
    section: 'Certificate subject annotations',
    help: 'Deprecated: use atmosphere_ingress_annotations',
  },

  // Names the whole platform shares (other roles read them too), and the ClusterIssuer's own name
  {
    name: 'atmosphere_ingress_cluster_issuer',
    type: 'string',
    default: 'atmosphere',
    required: false,
    secret: false,
    asked: false,
    section: 'Platform-wide names',
    help: 'The ClusterIssuer every ingress annotation and the wildcard Certificate name (the issuer is named after it unless cluster_issuer_name is set)',
  },
  {
    name: 'atmosphere_ingress_class_name',
    type: 'string',
    default: 'atmosphere',
    required: false,
    secret: false,
    asked: false,
    section: 'Platform-wide names',
    help: "The ingress class of the platform's ingresses; the HTTP-01 solver uses it unless cluster_issuer_acme_http01_ingress_class is set",
  },
  {
    name: 'openstack_helm_ingress_cluster_issuer',
    type: 'string',
    defaultFrom: 'atmosphere_ingress_cluster_issuer',
    required: false,
    secret: false,
    asked: false,
    section: 'Platform-wide names',
    help: 'The ClusterIssuer the API ingresses and the wildcard Certificate name (read by the ingress role)',
  },
  {
    name: 'cluster_issuer_name',
    type: 'string',
    defaultFrom: 'atmosphere_ingress_cluster_issuer',
    required: false,
    secret: false,
    asked: false,
    appliesWhen: { issuer: MAKE_AN_ISSUER },
    section: 'Platform-wide names',
    help: 'Name of the ClusterIssuer the role creates (keep it equal to atmosphere_ingress_cluster_issuer, which the ingresses name)',
  },
];
