import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RouteInventory } from './route-inventory';

@Module({ imports: [DiscoveryModule], providers: [RouteInventory], exports: [RouteInventory] })
export class RoutesModule {}
